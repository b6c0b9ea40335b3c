import { defineConfig } from '@playwright/test';

/** Real Debian Chromium (never a downloaded browser), through the web transport of `thclaws dashboard`. */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/tmp-root.ts',
  // Two at a time on the 2-core CI machine: the specs mostly wait on real processes (dashboard, host, agents), and one
  // at a time took 10.7 of CI's 20 minutes (5.2 min at two here, all passing).
  workers: 2,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
