// Types of require-node.js, which stays plain JavaScript so that any Node can parse it.

export declare const MINIMUM_NODE: string;
export declare function nodeVersionProblem(version: string): string | null;
