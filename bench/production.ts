// Imported first by bench/run.ts: boardgame.io reads NODE_ENV when its modules load, and is raced
// in production mode, without its development checks.
process.env.NODE_ENV = 'production';
