/// <reference types="vite/client" />
import '@xterm/xterm/css/xterm.css';
import '@fontsource/dejavu-mono/400.css';
import '@fontsource/dejavu-mono/700.css';
import '@fontsource/maple-mono/400.css';
import './styles.css';
import './live.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './context';

// xterm measures its cell once, when a terminal opens: load the bundled terminal fonts first (they are local
// files, so this is quick; a font that fails to load must not keep the dashboard from showing).
const fonts = Promise.all(['12px "DejaVu Mono"', 'bold 12px "DejaVu Mono"', '12px "Maple Mono"'].map((f) => document.fonts.load(f, 'a⎿')));
void Promise.race([fonts, new Promise((r) => setTimeout(r, 2000))])
  .catch(() => undefined)
  .then(() => createRoot(document.getElementById('root')!).render(<App />));
