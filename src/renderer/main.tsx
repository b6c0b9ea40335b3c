/// <reference types="vite/client" />
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import './live.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './context';

createRoot(document.getElementById('root')!).render(<App />);
