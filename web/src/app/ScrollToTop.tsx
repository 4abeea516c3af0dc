import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * On every navigation the page scrolls to the top. A layout effect, so the new page is never painted
 * at the old page's scroll position (and the scroll has happened by the time the page is in the DOM).
 */
export function ScrollToTop() {
  const { key } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [key]);
  return null;
}
