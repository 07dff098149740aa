// GET with the address checked where the connection is made: the resolved IP of every hop,
// redirects included, must be public unless private addresses are allowed (SPEC §5.3, §10).
import { lookup as dnsLookup } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'

export interface HttpFetchOptions {
  allowPrivate: boolean
  timeoutMs: number
  maxBytes: number
  maxRedirects?: number
  signal?: AbortSignal
}

export interface HttpResponse {
  url: string
  status: number
  mediaType?: string
  charset?: string
  data: Buffer
}

/** Whether an address may be reached without allowPrivate: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  let ip = ipaddr.parse(address)
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address()
  return ip.range() === 'unicast'
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as any)(err)
      const list = addresses as { address: string; family: number }[]
      const bad = list.find(a => !allowPrivate && !isPublicAddress(a.address))
      if (bad) return (callback as any)(new ResourceError('forbidden', `${clip(hostname)} resolves to ${bad.address}, a loopback/private/link-local address`))
      if ((options as any).all) return (callback as any)(null, list)
      return (callback as any)(null, list[0].address, list[0].family)
    })
  }
}

function checkLiteralHost(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw new ResourceError('forbidden', `${clip(url.origin)} is a loopback/private/link-local address; set http.allowPrivate to read it`)
  }
}

function once(url: URL, o: HttpFetchOptions): Promise<{ status: number; headers: http.IncomingHttpHeaders; data: Buffer }> {
  checkLiteralHost(url, o.allowPrivate)
  const mod = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = mod.get(url, {
      lookup: guardedLookup(o.allowPrivate), signal: o.signal, timeout: o.timeoutMs,
      headers: { 'user-agent': 'koishi-plugin-kotodama', accept: '*/*' },
    }, res => {
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400) {
        res.resume()
        return resolve({ status, headers: res.headers, data: Buffer.alloc(0) })
      }
      const declared = Number(res.headers['content-length'])
      if (declared > o.maxBytes) {
        res.destroy()
        return reject(new ResourceError('too_large', `${clip(url.href)} is ${declared} bytes; the cap is ${o.maxBytes}`))
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        size += c.length
        if (size > o.maxBytes) {
          res.destroy()
          reject(new ResourceError('too_large', `${clip(url.href)} is larger than the cap of ${o.maxBytes} bytes`))
        } else chunks.push(c)
      })
      res.on('end', () => resolve({ status, headers: res.headers, data: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    const deadline = setTimeout(() => req.destroy(new ResourceError('read_failed', `${clip(url.href)} did not answer within ${o.timeoutMs} ms`)), o.timeoutMs)
    req.on('close', () => clearTimeout(deadline))
    req.on('timeout', () => req.destroy(new ResourceError('read_failed', `${clip(url.href)} timed out after ${o.timeoutMs} ms`)))
    req.on('error', e => reject(e instanceof ResourceError ? e : new ResourceError('read_failed', `${clip(url.href)}: ${clip(e.message)}`)))
  })
}

export async function httpGet(href: string, o: HttpFetchOptions): Promise<HttpResponse> {
  let url = new URL(href)
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ResourceError('forbidden', `redirect to ${clip(url.protocol)} is not followed`)
    const r = await once(url, o)
    if (r.status >= 300 && r.status < 400 && r.headers.location) {
      if (hop >= (o.maxRedirects ?? 5)) throw new ResourceError('read_failed', `${clip(href)}: too many redirects`)
      url = new URL(r.headers.location, url)
      continue
    }
    if (r.status === 404 || r.status === 410) throw new ResourceError('not_found', `${clip(url.href)} answered ${r.status}`)
    if (r.status >= 400) throw new ResourceError('read_failed', `${clip(url.href)} answered ${r.status}`)
    const type = String(r.headers['content-type'] ?? '')
    const [mediaType, ...params] = type.split(';').map(s => s.trim())
    const charset = params.find(p => p.toLowerCase().startsWith('charset='))?.slice(8).replace(/"/g, '')
    return { url: url.href, status: r.status, mediaType: mediaType || undefined, charset, data: r.data }
  }
}
