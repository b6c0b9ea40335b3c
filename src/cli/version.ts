// Kept in sync with package.json by a test; a literal keeps `--version` free of a file read.
export const VERSION = '0.1.0';
