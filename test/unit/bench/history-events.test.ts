import { temporal } from '@temporalio/proto';
import { eventTypeName, eventsPerWorkflow, mergeTallies, tallyHistories } from '../../../bench/lib/history-events';

/** How `npm run bench:orders` counts history events per completed lifecycle (bench/README.md). */
const { EventType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
/** An event from a plain object (event ids are Longs in the proto's types). */
const event = (fields: Record<string, unknown>): HistoryEvent => temporal.api.history.v1.HistoryEvent.fromObject(fields);

const json = (value: unknown) => ({ payloads: [{ data: Buffer.from(JSON.stringify(value)) }] });
const scheduled = (eventId: number, name: string) =>
  event({
    eventId,
    eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    activityTaskScheduledEventAttributes: { activityType: { name } },
  });
const completed = (scheduledEventId: number) =>
  event({ eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, activityTaskCompletedEventAttributes: { scheduledEventId } });
const localActivity = (type: string): HistoryEvent => ({
  eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
  markerRecordedEventAttributes: { markerName: 'core_local_activity', details: { data: json({ activity_type: type }) } },
});
const patch = (id: string): HistoryEvent => ({
  eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
  markerRecordedEventAttributes: { markerName: 'core_patch', details: { 'patch-data': json({ id, deprecated: false }) } },
});
const upsert = (...keys: string[]): HistoryEvent => ({
  eventType: EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
  upsertWorkflowSearchAttributesEventAttributes: { searchAttributes: { indexedFields: Object.fromEntries(keys.map((k) => [k, {}])) } },
});
const plain = (eventType: temporal.api.enums.v1.EventType): HistoryEvent => ({ eventType });

describe('eventTypeName', () => {
  it("is the event type as Temporal's UI names it", () => {
    expect(eventTypeName(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toBe('ActivityTaskScheduled');
    expect(eventTypeName(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toBe('WorkflowExecutionUpdateAccepted');
    expect(eventTypeName(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)).toBe('UpsertWorkflowSearchAttributes');
  });
});

describe('tallyHistories', () => {
  it('names what each event is for: the activity, the local activity or patch a marker records, the attributes upserted', () => {
    const order = [
      plain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED),
      patch('order-patches'),
      upsert('TemporalChangeVersion'),
      localActivity('createProviderOrder'),
      plain(EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED),
      upsert('OrderStatus'),
      scheduled(7, 'attemptIntegratorWebhook'),
      completed(7),
      plain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
    ];
    const tally = tallyHistories([order]);
    expect(tally.workflows).toBe(1);
    expect(tally.events).toEqual([9]);
    expect(tally.perWorkflow).toEqual({
      'ActivityTaskCompleted attemptIntegratorWebhook': 1,
      'ActivityTaskScheduled attemptIntegratorWebhook': 1,
      'MarkerRecorded local activity createProviderOrder': 1,
      'MarkerRecorded patch order-patches': 1,
      'UpsertWorkflowSearchAttributes OrderStatus': 1,
      'UpsertWorkflowSearchAttributes TemporalChangeVersion': 1,
      WorkflowExecutionCompleted: 1,
      WorkflowExecutionStarted: 1,
      'WorkflowPropertiesModified memo': 1,
    });
  });

  it('gives each label its mean per workflow, over several workflows and rounds', () => {
    const timer = plain(EventType.EVENT_TYPE_TIMER_STARTED);
    const round1 = tallyHistories([[timer, timer], [timer]]);
    const round2 = tallyHistories([[timer, timer, timer]]);
    expect(round1.perWorkflow.TimerStarted).toBe(1.5);
    const both = mergeTallies([round1, round2]);
    expect(both.workflows).toBe(3);
    expect(both.perWorkflow.TimerStarted).toBe(2);
    expect(eventsPerWorkflow(both)).toEqual({ median: 2, min: 1, max: 3 });
  });

  it('is NaN, not zero, with no workflow read', () => {
    expect(eventsPerWorkflow(tallyHistories([])).median).toBeNaN();
  });
});
