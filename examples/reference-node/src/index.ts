export { createHandler, type HandlerOptions } from './handler.js';
