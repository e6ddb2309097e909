// zod's JIT probes `new Function`, which the CSP (default-src 'self') forbids. Imported first by
// main.tsx so the setting is in place before any schema module is evaluated.

import { z } from 'zod';

z.config({ jitless: true });
