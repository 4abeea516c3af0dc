import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Spec 1 section 2: on every navigation the page scrolls to the top. */
export function ScrollToTop() {
  const { key } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [key]);
  return null;
}
