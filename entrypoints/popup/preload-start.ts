// main.tsx's first import: module bodies run in import order, so this one runs before the others.
// Normally popup-preload.js already sent the first requests and this does nothing.
import { startPreload } from './preload';

startPreload();
