export * from './constants';
export * from './errors';
export * from './money';
export * from './schemas/common';
export * from './schemas/catalog';
export * from './schemas/admin';
export * from './schemas/player';
export * from './permissions';
