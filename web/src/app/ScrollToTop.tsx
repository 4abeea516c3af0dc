import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** On every navigation the page scrolls to the top. */
export function ScrollToTop() {
  const { key } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [key]);
  return null;
}
