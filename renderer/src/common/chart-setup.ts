// The chart.js parts every Benchlab chart uses, registered once (chart.js is tree-shaken: a chart
// type, scale or plugin not registered here does not exist).

import { Chart, Decimation, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Decimation, Legend, Tooltip);

export { Chart };
