// Evaluated first of the popup's module graph (main.tsx imports it before anything else): sends the
// first requests before zod's schemas and the screens' modules are evaluated.
import { startPreload } from './preload';

startPreload();
