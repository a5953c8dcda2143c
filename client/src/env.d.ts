/** The build's version, the same one builds/latest.json carries (vite.config.ts). */
declare const __BUILD_VERSION__: string;
