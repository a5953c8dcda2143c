/** Where a coin lives on chain; the names are translation keys (react-admin translates choices). */
export const NETWORK_CHOICES = [
  { id: 'ton', name: 'coins.networks.ton' },
  { id: 'jetton', name: 'coins.networks.jetton' },
];
