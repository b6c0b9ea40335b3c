/**
 * The only thing the sandboxed renderer gets: `window.thclaws` with send/onMessage. Requests are checked
 * against the API contract here and again in main; nothing else of Electron or Node is exposed.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, parseEvent, parseRequest } from '../contract/api.js';

const { request: REQUEST_CHANNEL, event: EVENT_CHANNEL } = IPC_CHANNELS;

contextBridge.exposeInMainWorld('thclaws', {
  send(message: unknown): void {
    const r = parseRequest(message);
    if (!r.ok) throw new Error(r.error);
    ipcRenderer.send(REQUEST_CHANNEL, r.request);
  },
  onMessage(listener: (message: unknown) => void): () => void {
    const handler = (_e: IpcRendererEvent, message: unknown) => {
      if (parseEvent(message).ok) listener(message);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});
