interface CharCounterProps {
  value: string;
  max: number;
  /** Give it and add it to the input's aria-describedby. */
  id?: string;
}

/** 'n/max' under a field with a length limit (e.g. e-mail 100, password 20). */
export function CharCounter({ value, max, id }: CharCounterProps) {
  return (
    <small className="char-counter" id={id} aria-live="polite">
      {value.length}/{max}
    </small>
  );
}
