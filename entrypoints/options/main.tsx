import '@/lib/zod-config';
import { render } from 'preact';
import { Options } from './Options';
import '@/assets/tokens.css';
import './style.css';

render(<Options />, document.getElementById('app') as HTMLElement);
