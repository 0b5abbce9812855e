/**
 * `node --import ./register-electron-stand-in.ts dist/electron/main.js`: every `electron` import (the
 * bundle's, and those of its dependencies such as electron-store) resolves to the stand-in, as the
 * Electron runtime would resolve it to itself; everything else resolves as it would in the app.
 */
import { registerHooks } from 'node:module';

const standIn = new URL('./electron-stand-in.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, format: 'module-typescript', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
