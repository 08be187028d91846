// Browser notifications for the workspace (web/src/chat/attention/notify.rs decides
// when): the permission as it stands, asking for it (only ever from a click),
// and showing one.

/** 'granted', 'denied', 'default', or 'unsupported'. */
export function notificationState() {
  return 'Notification' in window ? Notification.permission : 'unsupported';
}

/** Asks for the permission (call from a click); resolves with the new state. */
export async function askNotifications() {
  if (!('Notification' in window)) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** Shows a notification (one per `tag`); a click on it brings the tab forward. */
export function showNotification(title, body, tag) {
  try {
    const shown = new Notification(title, { body, tag });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
    return true;
  } catch {
    return false;
  }
}
