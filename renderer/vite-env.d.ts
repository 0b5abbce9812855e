// Stylesheets are bundled by Vite (imported for their side effect).
declare module '*.css';
