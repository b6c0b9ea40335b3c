/** An AES-GCM `KeyCipher` with a random key: stands in for Electron's safeStorage where no Electron runs. */
import crypto from 'node:crypto';
import type { KeyCipher } from '../src/core/agent/api-key.js';

export function aesTestCipher(name = 'test-safeStorage'): KeyCipher {
  const secret = crypto.randomBytes(32);
  return {
    name,
    encrypt: (plain) => {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', secret, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt: (data) => {
      const d = crypto.createDecipheriv('aes-256-gcm', secret, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
}
