import { Tree, type TreeExpandedKeysType, type TreePassThroughOptions, type TreeProps } from 'primereact/tree';
import type { TreeNode } from 'primereact/treenode';
import { cloneElement, useMemo, useState, type ReactElement } from 'react';

/**
 * A JSON answer as an expandable tree (the batch import's result, the free look-up's document):
 * objects 'key: {…}' and arrays 'key: [n]' expand to their entries, anything else is a leaf
 * 'key: value'. The root and the `open` paths start expanded.
 */

function leaf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return String(value);
}

/** A JSON value as PrimeReact TreeNodes; keys are the paths ('resultado.documentos.0'). */
export function jsonTree(key: string, value: unknown, path: string = key): TreeNode {
  if (Array.isArray(value)) {
    return { key: path, label: `${key}: [${value.length}]`, children: value.map((item, i) => jsonTree(String(i), item, `${path}.${i}`)) };
  }
  if (typeof value === 'object' && value !== null) {
    return { key: path, label: `${key}: {…}`, children: Object.entries(value).map(([k, v]) => jsonTree(k, v, `${path}.${k}`)) };
  }
  return { key: path, label: `${key}: ${leaf(value)}`, leaf: true };
}

/**
 * Accessibility of PrimeReact's Tree: an expanded item shows its children inside it, so its own
 * aria-label (only its label) would no longer contain its visible text (WCAG 2.5.3; axe
 * label-content-name-mismatch); there the name comes from the content, as in the WAI-ARIA tree
 * pattern. A closed item says so (aria-expanded false), and the toggle button is named after what it
 * does to which item.
 */
const TREE_PT: TreePassThroughOptions = {
  node: (options) => {
    if (options?.context.expanded) return { 'aria-label': undefined };
    // PrimeReact leaves aria-expanded out on a closed item; it says 'closed' only with false.
    return options?.context.leaf ? {} : { 'aria-expanded': false };
  },
};

type TogglerOptions = Parameters<Extract<TreeProps['togglerTemplate'], (...args: never[]) => unknown>>[1];

function toggler(node: TreeNode, options: TogglerOptions) {
  return cloneElement(options.element as ReactElement<{ 'aria-label'?: string }>, {
    'aria-label': `${options.expanded ? 'Recolher' : 'Expandir'} ${node.label ?? ''}`,
  });
}

export function JsonTree({ rootKey, value, label, open = [] }: { rootKey: string; value: unknown; label: string; open?: readonly string[] }) {
  const nodes = useMemo(() => [jsonTree(rootKey, value)], [rootKey, value]);
  const [expanded, setExpanded] = useState<TreeExpandedKeysType>(() =>
    Object.fromEntries([rootKey, ...open.map((p) => `${rootKey}.${p}`)].map((k) => [k, true])),
  );
  return <Tree value={nodes} expandedKeys={expanded} onToggle={(e) => setExpanded(e.value)} ariaLabel={label} pt={TREE_PT} togglerTemplate={toggler} />;
}
