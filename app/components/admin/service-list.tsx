import { useEffect } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { imageSrcSet } from '~/lib/images';
import { FEATURES_SHOWN, serviceDeleteQuestion, SERVICE_MESSAGES, type AdminService } from '~/lib/services';
import { truncate } from '~/lib/text';
import { Banner } from './banner';
import { ConfirmDelete } from './confirm-delete';

/** The answer to Move up / Move down. */
export interface MoveAnswer {
  ok: boolean;
  message: string;
  id?: string;
  direction?: 'up' | 'down';
}

const BUTTON = 'inline-flex items-center rounded-lg px-3 py-1.5 text-sm font-semibold';
const QUIET = `${BUTTON} bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500`;

/**
 * The stored services in their public order, each with Move up / Move down (one small form each, so
 * they work without JavaScript), Edit, View and, for roles that may, Delete. After a move the cursor
 * stays on the moved service's button, and the new position is announced.
 */
export function ServiceList({
  services,
  canDelete,
  answer,
}: {
  services: AdminService[];
  canDelete: boolean;
  answer: MoveAnswer | undefined;
}) {
  const navigation = useNavigation();
  const moving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'move';

  // The answer and the list it changed may arrive in separate renders: look again at each, and move
  // the cursor only when it is still on the moved service's buttons or was lost (its button became
  // disabled at an end of the list).
  useEffect(() => {
    if (!answer?.ok || !answer.id || !answer.direction) return;
    const same = document.getElementById(`move-${answer.direction}-${answer.id}`) as HTMLButtonElement | null;
    const other = document.getElementById(`move-${answer.direction === 'up' ? 'down' : 'up'}-${answer.id}`);
    const active = document.activeElement;
    if (active && active !== document.body && active !== same && active !== other) return;
    (same && !same.disabled ? same : other)?.focus();
  }, [answer, services]);

  return (
    <>
      <p role="status" className="sr-only">
        {answer?.ok ? answer.message : ''}
      </p>
      {answer && !answer.ok && (
        <div className="mt-4">
          <Banner key={answer.message} type="error" message={answer.message} />
        </div>
      )}
      {services.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-slate-200 bg-white p-8 text-center text-lg font-semibold text-slate-800">
          {SERVICE_MESSAGES.empty}
        </p>
      ) : (
        <ol className="mt-6 space-y-4" aria-label="Services in the order the website shows them" aria-busy={moving}>
          {services.map((service, index) => (
            <li
              key={service.id}
              id={`service-${service.id}`}
              className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm md:flex-row"
            >
              {service.imageUrl ? (
                <img
                  src={service.imageUrl}
                  srcSet={imageSrcSet(service.imageUrl)}
                  sizes="160px"
                  alt=""
                  width={160}
                  height={90}
                  loading="lazy"
                  className="aspect-video w-32 shrink-0 rounded-lg object-cover md:w-40"
                />
              ) : (
                <div className="flex aspect-video w-32 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-sm text-slate-700 md:w-40">
                  No image
                </div>
              )}
              <div className="min-w-0 flex-1">
                <h2 className="text-lg font-bold break-words text-slate-900">{service.title}</h2>
                <p className="mt-1 text-sm text-slate-700">
                  Position {index + 1} of {services.length} · {service.features.length}{' '}
                  {service.features.length === 1 ? 'feature' : 'features'}
                  {service.features.length > FEATURES_SHOWN && ` (the list shows ${FEATURES_SHOWN})`}
                  {service.demo && ' · Demo content'}
                </p>
                <p className="mt-2 break-words text-slate-700">{truncate(service.description, 160)}</p>
              </div>
              <div className="flex shrink-0 flex-wrap items-start gap-2 md:w-56 md:justify-end">
                <MoveButton service={service} direction="up" disabled={index === 0} />
                <MoveButton service={service} direction="down" disabled={index === services.length - 1} />
                <Link
                  to={`/admin/services/${service.id}/edit`}
                  className={`${BUTTON} bg-indigo-800 text-white hover:bg-indigo-900`}
                >
                  Edit<span className="sr-only"> {service.title}</span>
                </Link>
                <a href={`/services/${service.id}`} className={QUIET}>
                  View<span className="sr-only"> {service.title} on the website</span>
                </a>
                {canDelete && (
                  <ConfirmDelete
                    href={`/admin/services/${service.id}/delete`}
                    label="Delete"
                    itemName={service.title}
                    question={serviceDeleteQuestion(service.title, services.length === 1)}
                    buttonClass={`${BUTTON} bg-red-700 text-white hover:bg-red-800`}
                  />
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function MoveButton({ service, direction, disabled }: { service: AdminService; direction: 'up' | 'down'; disabled: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={service.id} />
      <input type="hidden" name="direction" value={direction} />
      <button type="submit" id={`move-${direction}-${service.id}`} disabled={disabled} className={QUIET}>
        {direction === 'up' ? 'Move up' : 'Move down'}
        <span className="sr-only"> {service.title}</span>
      </button>
    </Form>
  );
}
