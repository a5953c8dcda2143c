// The modules-only run of `npm run lint`: no cycle between the modules of server/src/modules. On the whole server a
// folder rule would see server/src itself as one folder, holding app.ts above the modules and env.ts below them, and
// report a cycle through it; so this run looks at the modules alone, as server/scripts/moduleRules.mjs did.
const { options } = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment: 'No cycle between the modules of server/src/modules, whichever of their files the arrows join.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/src/modules/[^/]+$' },
      to: { path: '^server/src/modules/[^/]+$', circular: true },
    },
  ],
  options: { ...options, includeOnly: '^server/src/modules/' },
};
