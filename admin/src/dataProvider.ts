import { fetchUtils, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { adminToken } from './session';

export const API_URL = '/api/admin';

/** Every console call carries the operator's token. */
export function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const token = adminToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetchUtils.fetchJson(url, { ...options, headers });
}

/** ra-data-simple-rest conventions (sort/range/filter, Content-Range) against /api/admin/<resource>. */
export const dataProvider: DataProvider = simpleRestProvider(API_URL, httpClient);
