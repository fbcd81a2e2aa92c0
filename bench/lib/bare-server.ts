// The baseline: a bare Node http server answering one fixed JSON body, nothing else.
import http from 'node:http';

const body = JSON.stringify({
  profile: { id: '1', username: 'bench', growId: 'Bench', accountType: 'Free', serverOwned: 'No Server' },
  settings: { maintenance: false },
});
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const a = server.address();
  console.log(`listening ${typeof a === 'object' && a ? a.port : ''}`);
});
