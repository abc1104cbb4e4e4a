import client from "prom-client";

/**
 * What a metric of this process's registry (app/observability/metrics.server.ts) holds for these labels: a
 * counter's or gauge's value, a histogram's count of observations; 0 when nothing was recorded.
 */
export async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = client.register.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { type, values } = await metric.get();
  const histogram = String(type) === "histogram";
  const matches = (values as (client.MetricValue<string> & { metricName?: string })[]).filter(
    (value) => (!histogram || value.metricName === `${name}_count`) && Object.entries(labels).every(([key, label]) => String(value.labels[key]) === label),
  );
  return matches.reduce((sum, value) => sum + value.value, 0);
}
