// main.tsx's first import: module bodies run in import order, so this one runs before the others.
import { startPreload } from './preload';

startPreload();
