export { fetchEventSource, EventStreamContentType } from './fetch.js';
