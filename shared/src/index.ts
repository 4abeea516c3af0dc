export * from './messages';
export * from './validation';
export * from './access';
