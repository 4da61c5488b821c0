import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  height: number;
  /** Renders row i; only rows near the viewport are rendered, so 10,000 rows cost a screenful. */
  renderRow: (index: number) => ComponentChildren;
  label: string;
  id?: string;
}

const OVERSCAN = 6;

export function VirtualList({ count, rowHeight, height, renderRow, label, id }: VirtualListProps) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <li
        key={i}
        style={{
          position: 'absolute',
          top: `${i * rowHeight}px`,
          height: `${rowHeight}px`,
          left: 0,
          right: 0,
        }}
      >
        {renderRow(i)}
      </li>,
    );
  }
  return (
    <div
      class="virtual-list"
      style={{ height: `${Math.min(height, count * rowHeight)}px`, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul
        id={id}
        aria-label={label}
        style={{
          height: `${count * rowHeight}px`,
          position: 'relative',
          margin: 0,
          padding: 0,
          listStyle: 'none',
        }}
      >
        {rows}
      </ul>
    </div>
  );
}
