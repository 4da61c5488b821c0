import '@/lib/zod-config';
import { render } from 'preact';
import { Approve } from './Approve';
import '@/assets/tokens.css';
import './style.css';

render(<Approve />, document.getElementById('app') as HTMLElement);
