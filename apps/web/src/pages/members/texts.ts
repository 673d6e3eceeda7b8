/** Texts of the member actions (German first; both languages have every key). */
const de = {
  actions: 'Aktionen',
  roleFor: 'Rolle von {email}',
  changeRole: 'Rolle ändern',
  remove: 'Entfernen',
  removeTitle: 'Mitglied entfernen',
  removeConfirm:
    '{email} wirklich aus dem Unternehmen entfernen? Die Person verliert den Zugang zum Unternehmen; eine offene Einladung gilt nicht mehr. Das lässt sich nicht rückgängig machen.',
  cancel: 'Abbrechen',
  roleChanged: 'Die Rolle von {email} ist jetzt {role}.',
  removed: '{email} wurde entfernt.',
  notFound: 'Dieses Mitglied gibt es nicht (mehr).',
  backToMembers: 'Zurück zu den Mitgliedern',
};
type Keys = keyof typeof de;
const en: Record<Keys, string> = {
  actions: 'Actions',
  roleFor: 'Role of {email}',
  changeRole: 'Change role',
  remove: 'Remove',
  removeTitle: 'Remove member',
  removeConfirm:
    'Really remove {email} from the company? They lose access to the company; an open invitation stops working. This cannot be undone.',
  cancel: 'Cancel',
  roleChanged: '{email} is now {role}.',
  removed: '{email} has been removed.',
  notFound: 'This member does not exist (any more).',
  backToMembers: 'Back to the members',
};
export const texts: Record<'de' | 'en', Record<Keys, string>> = { de, en };
