export * from './roles';
export * from './role-labels';
export * from './session';
export * from './menu';
export * from './side-menu';
