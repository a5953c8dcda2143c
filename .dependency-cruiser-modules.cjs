// The modules-only run of `npm run lint`: no cycle between the modules of server/src/modules. Folder rules cannot take
// known violations, and on the whole server every module folder meets rest/ and trpc/ (roots and kits in one folder),
// so this one looks at the modules alone, as server/scripts/moduleRules.mjs did.
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
