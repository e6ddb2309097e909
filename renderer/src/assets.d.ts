// Style sheets are bundled by Vite; importing one has no value, only the side effect.
declare module '*.css';
