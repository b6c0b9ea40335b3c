/**
 * Provider profiles (settings `providers`): which profile a `<profile>/<model>` id names, its models' table
 * for limits and prices, the provider built for it, and which project profiles an untrusted folder may use.
 */
import { setProfileModels, type ModelInfo } from '../../contract/models.js';
import { OpenAICompatibleProvider } from './providers/openai-compatible.js';
import type { RetryPolicy } from './providers/retry.js';
import { ProviderError, type Provider } from './providers/types.js';
import type { ProviderProfile } from '../../contract/settings-schema.js';

export type Profiles = Readonly<Record<string, ProviderProfile>>;

/** `local/qwen3-coder` → profile `local`, model `qwen3-coder` (the rest may hold more slashes); else null. */
export function splitModelRef(model: string): { profile: string; model: string } | null {
  const at = model.indexOf('/');
  if (at <= 0) return null;
  return { profile: model.slice(0, at), model: model.slice(at + 1) };
}

/** The profile a model id names, or undefined for a plain (Anthropic) id; an unknown profile is an error. */
export function profileOf(model: string, profiles: Profiles): { name: string; profile: ProviderProfile; model: string } | undefined {
  const ref = splitModelRef(model);
  if (!ref) return undefined;
  const profile = Object.hasOwn(profiles, ref.profile) ? profiles[ref.profile] : undefined;
  if (!profile) {
    const known = Object.keys(profiles);
    throw new ProviderError(
      `unknown provider profile '${ref.profile}' in model '${model}': ${known.length ? `known profiles: ${known.join(', ')}` : 'no profiles are set'} (settings "providers")`,
    );
  }
  if (!ref.model) throw new ProviderError(`model '${model}' names no model after '${ref.profile}/'`);
  return { name: ref.profile, profile, model: ref.model };
}

/** Makes every profile's table known to modelInfo()/estimateCost() as `<profile>/<model>`. */
export function registerProfileModels(profiles: Profiles): void {
  const map = new Map<string, Partial<ModelInfo>>();
  for (const [name, p] of Object.entries(profiles)) {
    for (const [id, m] of Object.entries(p.models)) {
      const price = m.price ? { input: m.price.input, output: m.price.output, cacheRead: m.price.cachedInput ?? m.price.input, cacheWrite: m.price.input } : undefined;
      map.set(`${name}/${id}`, {
        ...(m.contextWindow ? { contextWindow: m.contextWindow } : {}),
        ...(m.maxOutput ? { maxOutput: m.maxOutput } : {}),
        ...(price ? { price } : {}),
      });
    }
  }
  setProfileModels(map);
}

/**
 * One provider per profile, built on first use: `providerFor(model)` is undefined for a plain model id.
 * The key is read from the profile's `apiKeyEnv` when the provider is built; a variable named but unset is
 * an error (sending no key would fail later with a less clear 401).
 */
export function profileProviders(profiles: Profiles, retry: RetryPolicy, env: NodeJS.ProcessEnv = process.env): (model: string) => Provider | undefined {
  const built = new Map<string, Provider>();
  return (model) => {
    const p = profileOf(model, profiles);
    if (!p) return undefined;
    let provider = built.get(p.name);
    if (!provider) {
      const apiKey = p.profile.apiKeyEnv ? env[p.profile.apiKeyEnv] : undefined;
      if (p.profile.apiKeyEnv && !apiKey) throw new ProviderError(`provider profile '${p.name}' reads its key from ${p.profile.apiKeyEnv}, which is not set`);
      provider = new OpenAICompatibleProvider({
        profile: p.name,
        baseURL: p.profile.baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(p.profile.apiKeyEnv ? { apiKeyEnv: p.profile.apiKeyEnv } : {}),
        maxTokensParam: p.profile.maxTokensParam,
        retry,
      });
      built.set(p.name, provider);
    }
    return provider;
  };
}

function hostOf(url: unknown): string | null {
  try {
    return typeof url === 'string' ? new URL(url).host.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** Profile fields known to send nothing anywhere by themselves; any other (a header, a proxy…) might. */
const INERT_FIELDS = new Set(['type', 'baseURL', 'apiKeyEnv', 'maxTokensParam', 'models']);

type RawProfile = { baseURL?: unknown; apiKeyEnv?: unknown } & Record<string, unknown>;

/** Where a profile sends code and which secret goes with it: `host|KEY_VAR` (null: no usable host). */
function destination(p: RawProfile | undefined): string | null {
  const h = hostOf(p?.baseURL);
  return h === null ? null : `${h}|${typeof p?.apiKeyEnv === 'string' ? p.apiKeyEnv : ''}`;
}

/**
 * Profiles of a project layer that would send code or a secret somewhere the person has not: ignored until
 * the folder is trusted. A project profile is kept only if its host is one of the person's own (user settings)
 * profiles' and a key variable it names is one the person sends to that host, it has no field that could
 * send more, and it does not redefine a profile of the person's. Returned as `providers.<name>` keys.
 */
export function untrustedProfileKeys(projectRaw: Record<string, unknown>, userRaw: Record<string, unknown> | undefined): string[] {
  const userProfiles = (userRaw?.providers ?? {}) as Record<string, RawProfile>;
  const own = new Set<string>();
  const ownHosts = new Set<string>();
  for (const p of Object.values(userProfiles)) {
    const d = destination(p);
    if (d) own.add(d);
    const h = hostOf(p?.baseURL);
    if (h) ownHosts.add(h);
  }
  const project = projectRaw.providers;
  if (!project || typeof project !== 'object') return [];
  return Object.entries(project as Record<string, RawProfile>)
    .filter(([name, p]) => {
      if (!p || typeof p !== 'object') return true;
      if (Object.hasOwn(userProfiles, name) && JSON.stringify(userProfiles[name]) !== JSON.stringify(p)) return true;
      if (Object.keys(p).some((k) => !INERT_FIELDS.has(k))) return true;
      const h = hostOf(p.baseURL);
      if (h === null || !ownHosts.has(h)) return true;
      return p.apiKeyEnv !== undefined && !own.has(destination(p)!);
    })
    .map(([name]) => `providers.${name}`);
}
