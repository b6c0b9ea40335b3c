/**
 * A model as the page shows it: what actually runs (the scripted provider plays a script whatever model is
 * set) and what a model costs, from the contract's model table.
 */
import { DEFAULT_MODEL, modelInfo, resolveModelAlias } from '../contract/models';

/** What runs when the scripted provider does: named, never a model it only pretends to be. */
export function scriptedLabel(demo: boolean): string {
  return demo ? 'scripted (demo)' : 'scripted';
}

/** The model shown for an agent; a `<profile>/<model>` runs its profile even beside the scripted provider. */
export function shownModel(model: string, run: { scripted: boolean; demo: boolean }): string {
  return run.scripted && !model.includes('/') ? scriptedLabel(run.demo) : model;
}

const usd = (n: number) => `$${n < 1 ? n.toFixed(2).replace(/0$/, '') : String(n)}`;

/** "claude-sonnet-5-5 · $2 in / $10 out per M tokens"; an alias names its model; no price: "price unknown". */
export function modelPrice(model: string | null): string {
  const id = resolveModelAlias(model?.trim() || DEFAULT_MODEL);
  const p = modelInfo(id)?.price;
  return `${id} · ${p ? `${usd(p.input)} in / ${usd(p.output)} out per M tokens` : 'price unknown'}`;
}
