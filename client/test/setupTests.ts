import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// pages load lazily: the first test of a file waits for jest to transform a page's module, slow on a cold cache
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = '';
});
