/** The `xliff` package ships no types: the converters `exchange.ts` uses, in their callback form (which runs synchronously). */
declare module 'xliff' {
  type Done<T> = (err: Error | null, result: T) => void;
  export function jsToXliff12(js: object, options: { indent?: string }, done: Done<string>): void;
  export function xliff12ToJs<T>(xml: string, options: object, done: Done<T>): void;
  export function xliff2js<T>(xml: string, options: object, done: Done<T>): void;
}
