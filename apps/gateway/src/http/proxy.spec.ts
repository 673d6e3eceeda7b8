import { proxyTarget } from './proxy';

describe('proxyTarget', () => {
  // what Node's url.parse gives for each (http-proxy calls it on a string target), read off Node 24
  it.each([
    ['http://127.0.0.1:3002', { protocol: 'http:', host: '127.0.0.1:3002', hostname: '127.0.0.1', port: '3002', path: '/', pathname: '/' }],
    [
      'http://customer-service:3002',
      { protocol: 'http:', host: 'customer-service:3002', hostname: 'customer-service', port: '3002', path: '/', pathname: '/' },
    ],
    ['http://[::1]:3002', { protocol: 'http:', host: '[::1]:3002', hostname: '::1', port: '3002', path: '/', pathname: '/' }],
    [
      'https://svc.example/base',
      { protocol: 'https:', host: 'svc.example', hostname: 'svc.example', port: null, path: '/base', pathname: '/base' },
    ],
  ])('gives http-proxy what url.parse would for %s', (url, expected) => {
    expect(proxyTarget(url)).toEqual(expected);
  });
});
