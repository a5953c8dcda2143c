import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// In development the API runs on the server's port; the built app is served by that same server.
const api = process.env.API_ORIGIN ?? 'http://localhost:3000';

/** This build's version: the release's commit when CI gives one, else the build time. */
const BUILD_VERSION = process.env.BUILD_VERSION ?? process.env.GIT_COMMIT ?? new Date().toISOString();

/**
 * Writes builds/latest.json (docs/product.md), which running apps poll to notice a new release, and names the build's
 * version in index.html (`<meta name="build-version">`, read by src/lib/serviceWorker.ts). Not in the code: a version
 * compiled into a chunk changes its hash, and through the imports every chunk's, at each build (the build time), so
 * players would download the whole app again for a release that changed nothing, and the first screen's gzip size
 * (e2e/firstScreen.test.ts) would move by a few bytes from one build of the same sources to the next.
 */
function buildManifest(): Plugin {
  return {
    name: 'gift-build-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: JSON.stringify({ version: BUILD_VERSION }) });
    },
    transformIndexHtml: () => [{ tag: 'meta', attrs: { name: 'build-version', content: BUILD_VERSION }, injectTo: 'head' }],
  };
}

/**
 * Lists, in index.html, the code of every page the first screen does not load (the lazy pages, TON Connect's wallet
 * screens) as `<script type="application/json" id="later-pages">`. Once the first screen is complete the app has the
 * browser prefetch them into its cache (client/src/lib/laterPages.ts): idle priority, nothing run, and nothing taken from
 * the first screen's bandwidth. A tab first opened later, even offline, then finds its code in the cache (the assets are
 * immutable). The service worker's precache does the same where Telegram's webview runs one.
 */
function listLaterPages(): Plugin {
  return {
    name: 'gift-later-pages',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) return html;
        // what the first screen loads: the entry and everything it imports statically, then the app it starts on the
        // next frame (src/boot.tsx) with its own static imports, preloaded here so that frame costs no download time
        const loaded = new Set<string>();
        const visit = (fileName: string) => {
          if (loaded.has(fileName)) return;
          loaded.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(entry.fileName);
        const withEntry = new Set(loaded);
        // the languages' texts (src/lib/language.ts) are not preloaded: main.tsx asks for the player's one only
        const isTexts = (fileName: string) => {
          const chunk = bundle[fileName];
          return chunk?.type === 'chunk' && Boolean(chunk.facadeModuleId?.includes('/src/locales/'));
        };
        entry.dynamicImports.filter((fileName) => !isTexts(fileName)).forEach(visit);
        const preloads = [...loaded].filter((fileName) => !withEntry.has(fileName) && fileName.endsWith('.js'));
        const later = chunks.filter((chunk) => !loaded.has(chunk.fileName) && !chunk.fileName.startsWith('workbox'));
        const files = [
          ...later.map((chunk) => `/${chunk.fileName}`),
          ...later.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])].map((css) => `/${css}`)),
        ];
        return {
          html,
          tags: [
            {
              tag: 'script',
              attrs: { type: 'application/json', id: 'app-code' },
              children: JSON.stringify(preloads.map((fileName) => `/${fileName}`)),
              injectTo: 'body',
            },
            { tag: 'script', attrs: { type: 'application/json', id: 'later-pages' }, children: JSON.stringify(files), injectTo: 'body' },
          ],
        };
      },
    },
  };
}

const BOOT = fileURLToPath(new URL('src/boot.tsx', import.meta.url));
const ENTRY = fileURLToPath(new URL('src/main.tsx', import.meta.url));

/** `from` and every module it imports statically, directly or not. */
function staticImports(from: string, graph: Rolldown.ChunkingContext): Set<string> {
  const reached = new Set<string>();
  const next = [from];
  for (let id = next.pop(); id !== undefined; id = next.pop()) {
    if (reached.has(id)) continue;
    reached.add(id);
    next.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/**
 * Names the chunk of the code the first screen runs: the app (src/boot.tsx) and everything it imports statically, but what
 * the entry (src/main.tsx) holds already, all in one chunk, boot-[hash].js. Left to itself the bundler split that code by
 * the later pages sharing each module (React and the API client with all of them, the router with some, ...) into eight
 * files the first screen loads all of anyway; one file (and the bundler's small runtime beside it) gzips 2.7 kB smaller
 * than the eight (one dictionary, no lists of imports between them), room the first screen's budget needed
 * (e2e/firstScreen.test.ts). A later page imports what it shares from this chunk, always loaded before it (the pages are
 * lazy routes of the app).
 */
function firstScreenChunk(id: string, graph: Rolldown.ChunkingContext): string | null {
  // a few hundred modules, each a walk of the graph: milliseconds, and no cache to go stale between builds
  return staticImports(BOOT, graph).has(id) && !staticImports(ENTRY, graph).has(id) ? 'boot' : null;
}

export default defineConfig({
  base: '/',
  plugins: [
    react(),
    buildManifest(),
    listLaterPages(),
    VitePWA({
      // registered from src/lib/serviceWorker.ts, which also remembers a failed registration
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'sw.js',
      scope: '/',
      manifest: {
        name: 'Gift Rewards',
        short_name: 'Gift Rewards',
        description: 'Complete missions, mine and stake coins, invite friends and withdraw to your TON wallet.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#191919',
        theme_color: '#191919',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // the hashed build and the app's own pictures; the API, the console and the release file always go to the network
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        globIgnores: ['builds/**'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/(api|trpc|admin|healthz|terms|privacy|telegram|tonconnect-manifest\.json|builds)(\/|$)/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  resolve: {
    // wouter reads the location through the use-sync-external-store shim, for React before 18; React 19 has the hook itself
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // tRPC's packages do not say they are free of side effects (package.json "sideEffects"), so the bundler kept code of
      // theirs the app never calls (the WebSocket link: 0.9 kB gzip on the first screen); none of their modules acts on import
      treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]@trpc[\\/]/, sideEffects: false }] },
      // the entry's own imports stay in its chunk (loaded first, small on purpose: main.tsx); so the group takes no dependencies
      output: { codeSplitting: { groups: [{ name: firstScreenChunk, includeDependenciesRecursively: false }] } },
    },
  },
  server: {
    port: 5173,
    proxy: { '/trpc': api, '/tonconnect-manifest.json': api },
  },
});
