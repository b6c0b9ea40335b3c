/**
 * The only thing the sandboxed renderer gets: `window.thclaws` with send/onMessage; nothing else of Electron
 * or Node is exposed. Nothing is parsed here: a request is validated where it enters main (what main acts on)
 * and the host; an event (JSON text from main) once, by the renderer's transport, where it is used.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS } from '../contract/api.js';

const { request: REQUEST_CHANNEL, event: EVENT_CHANNEL } = IPC_CHANNELS;

contextBridge.exposeInMainWorld('thclaws', {
  send(message: unknown): void {
    ipcRenderer.send(REQUEST_CHANNEL, message);
  },
  onMessage(listener: (message: unknown) => void): () => void {
    const handler = (_e: IpcRendererEvent, message: unknown) => listener(message);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});
