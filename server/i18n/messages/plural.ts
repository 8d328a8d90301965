/** The singular text for a count of 1, else the plural one. */
export const one = (count: number, singular: string, plural: string) => (count === 1 ? singular : plural);
