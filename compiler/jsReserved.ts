/**
 * Names JavaScript gives a meaning of its own on every object. A pack is untrusted and its names
 * end up as keys in tables of the compiler, the runtime, scenario setups and the playground; one
 * of these as a key reads or rewrites what every object inherits. Tables keyed by pack names are
 * Maps or null-prototype objects; refusing these names as well keeps a pack that slips through one
 * table from touching the process.
 */
export const JS_RESERVED: ReadonlySet<string> = new Set([
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toString',
  'toLocaleString',
  'valueOf',
]);

export function isJsReserved(name: string): boolean {
  return JS_RESERVED.has(name);
}
