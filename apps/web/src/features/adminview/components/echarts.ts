import { LineChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

// Only what the admin charts draw, so the chunk stays small (ECharts' modular API).
echarts.use([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
