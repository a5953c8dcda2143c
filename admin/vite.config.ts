import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In development the REST API runs on the server's port; the built console is served by that same server.
const api = process.env.API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { port: 5174, proxy: { '/api': api } },
});
