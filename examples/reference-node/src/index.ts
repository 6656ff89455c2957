export { createHandler, type HandlerOptions, InvalidParams, MethodNotFound } from './handler.js';
