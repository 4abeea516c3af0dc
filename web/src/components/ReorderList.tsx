import './reorder-list.css';
import { Button } from 'primereact/button';
import { useId, useState, type DragEvent, type ReactNode } from 'react';

/**
 * A list put in order by dragging its items or with each item's up and down buttons (keyboard and
 * screen readers). Instead of PrimeReact's OrderList, whose listbox cannot hold an item's own buttons
 * (axe: nested-interactive, aria-required-children, listitem, aria-input-field-name): this is a
 * plain named <ol>, and a drag or move that ends where it started changes nothing and reports nothing.
 */
interface ReorderListProps<T> {
  /** The list's visible title, also its accessible name. */
  label: string;
  items: readonly T[];
  keyOf: (item: T) => string | number;
  /** The item's name in its buttons ('Mover … para cima'). */
  nameOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Called with the new order, only when the order really changed. */
  onReorder: (items: T[]) => void;
}

/** The items with the one at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export function ReorderList<T>({ label, items, keyOf, nameOf, renderItem, onReorder }: ReorderListProps<T>) {
  const titleId = useId();
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);

  function move(from: number, to: number) {
    if (from === to || to < 0 || to >= items.length) return;
    onReorder(moved(items, from, to));
  }

  function endDrag() {
    setDragging(null);
    setOver(null);
  }

  function drop(event: DragEvent, index: number) {
    event.preventDefault();
    if (dragging !== null) move(dragging, index);
    endDrag();
  }

  return (
    <section className="reorder" aria-labelledby={titleId}>
      <h2 className="reorder-title" id={titleId}>
        {label}
      </h2>
      <ol className="reorder-list" aria-labelledby={titleId}>
        {items.map((item, index) => {
          const name = nameOf(item);
          const classes = ['reorder-item', dragging === index ? 'reorder-dragging' : '', over === index && dragging !== index ? 'reorder-over' : '']
            .filter(Boolean)
            .join(' ');
          return (
            <li
              key={keyOf(item)}
              className={classes}
              draggable
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                // Firefox starts a drag only with some data.
                event.dataTransfer.setData('text/plain', name);
                setDragging(index);
              }}
              onDragOver={(event) => {
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
                if (over !== index) setOver(index);
              }}
              onDrop={(event) => drop(event, index)}
              onDragEnd={endDrag}
            >
              <i className="pi pi-bars reorder-handle" aria-hidden="true" />
              <div className="reorder-content">{renderItem(item)}</div>
              <span className="reorder-buttons">
                <Button
                  type="button"
                  icon="pi pi-angle-up"
                  rounded
                  text
                  severity="secondary"
                  aria-label={`Mover ${name} para cima`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                />
                <Button
                  type="button"
                  icon="pi pi-angle-down"
                  rounded
                  text
                  severity="secondary"
                  aria-label={`Mover ${name} para baixo`}
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                />
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
