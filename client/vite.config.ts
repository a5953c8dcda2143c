import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In development the API runs on the server's port; the built app is served by that same server.
const api = process.env.API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: { '/trpc': api, '/tonconnect-manifest.json': api },
  },
});
