// Builds the renderer (renderer/) into dist/renderer, which the headless server serves and
// the desktop window loads. Relative asset URLs so the same build works over http:// and file://.
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2_000,
  },
});
