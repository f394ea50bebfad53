/**
 * History events per completed order for `npm run bench:orders` (bench/README.md): a figure that does
 * not move with the machine, and which events make it up. Reads histories through the Temporal
 * client, every run of a workflow (continue-as-new included); payloads are not decoded (the order's
 * are encrypted), only event types and the names beside them.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { median } from './table';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const { EventType } = temporal.api.enums.v1;

/** A run that continued as new more often than this is not an order the benchmark made. */
const MAX_RUNS = 100;

/** Every event of a workflow's runs, oldest run first: the latest run, then each run it continued from. */
export async function workflowHistoryEvents(client: Client, workflowId: string): Promise<HistoryEvent[]> {
  const runs: HistoryEvent[][] = [];
  let runId: string | undefined;
  for (let i = 0; i < MAX_RUNS; i++) {
    const { events } = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.unshift(events ?? []);
    runId = events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) return runs.flat();
  }
  throw new Error(`${workflowId}: more than ${MAX_RUNS} runs`);
}

/** `EVENT_TYPE_ACTIVITY_TASK_SCHEDULED` → `ActivityTaskScheduled`. */
export function eventTypeName(eventType: number | null | undefined): string {
  const name = EventType[eventType ?? 0] ?? `EVENT_TYPE_${eventType}`;
  return name
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_, __: string, c: string) => c.toUpperCase());
}

/** The JSON in a marker's detail, when it is plain JSON (core writes its own marker data so). */
function markerJson(event: HistoryEvent, key: string): Record<string, unknown> | undefined {
  const payload = event.markerRecordedEventAttributes?.details?.[key]?.payloads?.[0];
  if (!payload?.data) return undefined;
  try {
    return JSON.parse(Buffer.from(payload.data).toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * An event's label: its type, and what tells events of one type apart where that says what they
 * are for (the activity, the local activity or patch a marker records, the search attributes
 * upserted, the signal). `activities` maps the history's ActivityTaskScheduled event ids to their
 * activity types, so that an activity's later events carry its name too.
 */
export function eventLabel(event: HistoryEvent, activities: ReadonlyMap<string, string>): string {
  const type = eventTypeName(event.eventType);
  const scheduled = (id: unknown) => activities.get(String(id)) ?? '?';
  switch (event.eventType) {
    case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
      return `${type} ${event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?'}`;
    case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
      return `${type} ${scheduled(event.activityTaskStartedEventAttributes?.scheduledEventId)}`;
    case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
      return `${type} ${scheduled(event.activityTaskCompletedEventAttributes?.scheduledEventId)}`;
    case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED:
      return `${type} ${scheduled(event.activityTaskFailedEventAttributes?.scheduledEventId)}`;
    case EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
      return `${type} ${scheduled(event.activityTaskTimedOutEventAttributes?.scheduledEventId)}`;
    case EventType.EVENT_TYPE_MARKER_RECORDED: {
      const name = event.markerRecordedEventAttributes?.markerName ?? '?';
      if (name === 'core_local_activity') {
        const data = markerJson(event, 'data');
        return `${type} local activity ${typeof data?.activity_type === 'string' ? data.activity_type : '?'}`;
      }
      if (name === 'core_patch') {
        const data = markerJson(event, 'patch-data');
        return `${type} patch ${typeof data?.id === 'string' ? data.id : '?'}`;
      }
      return `${type} ${name}`;
    }
    case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: {
      const keys = Object.keys(event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {});
      return `${type} ${keys.sort().join('+') || '?'}`;
    }
    case EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED:
      return `${type} memo`;
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
      return `${type} ${event.workflowExecutionSignaledEventAttributes?.signalName ?? '?'}`;
    default:
      return type;
  }
}

/** Each label's count in one workflow's events. */
export function countLabels(events: HistoryEvent[]): Map<string, number> {
  const activities = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      activities.set(String(event.eventId), event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?');
    }
    const label = eventLabel(event, activities);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

/** What a set of completed workflows' histories hold: events per workflow, and each label's mean per workflow. */
export interface HistoryTally {
  workflows: number;
  /** Events of each workflow, all its runs together. */
  events: number[];
  /** Label → events of that label per workflow, on average. */
  perWorkflow: Record<string, number>;
}

export function tallyHistories(histories: HistoryEvent[][]): HistoryTally {
  const totals = new Map<string, number>();
  for (const events of histories) {
    for (const [label, count] of countLabels(events)) totals.set(label, (totals.get(label) ?? 0) + count);
  }
  const n = histories.length;
  const labels = [...totals.keys()].sort();
  return {
    workflows: n,
    events: histories.map((events) => events.length),
    perWorkflow: Object.fromEntries(labels.map((label) => [label, n > 0 ? totals.get(label)! / n : NaN])),
  };
}

/** Several tallies as one (the rounds of one side). */
export function mergeTallies(tallies: HistoryTally[]): HistoryTally {
  const workflows = tallies.reduce((sum, t) => sum + t.workflows, 0);
  const totals = new Map<string, number>();
  for (const t of tallies) {
    for (const [label, mean] of Object.entries(t.perWorkflow)) totals.set(label, (totals.get(label) ?? 0) + mean * t.workflows);
  }
  const labels = [...totals.keys()].sort();
  return {
    workflows,
    events: tallies.flatMap((t) => t.events),
    perWorkflow: Object.fromEntries(labels.map((label) => [label, workflows > 0 ? totals.get(label)! / workflows : NaN])),
  };
}

/** Events per workflow: the median, the lowest and the highest; NaN with none. */
export function eventsPerWorkflow(tally: HistoryTally): { median: number; min: number; max: number } {
  if (tally.events.length === 0) return { median: NaN, min: NaN, max: NaN };
  return { median: median(tally.events), min: Math.min(...tally.events), max: Math.max(...tally.events) };
}
