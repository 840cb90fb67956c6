<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Symfony\Component\HttpFoundation\Cookie;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\ResponseHeaderBag;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\Event\ResponseEvent;

/**
 * Spindle's storage through a request's life, on the kernel's events: at kernel.request the
 * storages forget the previous request (onRequest); at kernel.response the session cookie is
 * set (__invoke); at kernel.terminate a session used again after the response is saved, as
 * PHP saves an open session when the script ends (onTerminate).
 *
 * The cookie is set just after Symfony's session listener (which saves the session, makes the
 * response private and, in recent versions, sets the cookie from the ini values), as PHP would
 * have sent it for this request alone: a new or regenerated id gets the cookie with
 * framework.session's name, path, domain, HttpOnly and SameSite, Secure when cookie_secure is
 * true or is "auto" and the request came over HTTPS, and the lifetime regenerate() was given; a
 * session left empty clears the cookie the request sent. PHP's own cookie settings are
 * process-wide, so they cannot carry a per-request choice.
 */
final class SessionLifecycle
{
    /** Symfony's session listener runs at 128 on kernel.request and at -1000 on kernel.response. */
    public const REQUEST_PRIORITY = 256;
    public const RESPONSE_PRIORITY = -1001;

    public function __construct(private readonly SessionStorageFactory $factory)
    {
    }

    public function __invoke(ResponseEvent $event): void
    {
        if (!$event->isMainRequest()) {
            return;
        }
        $request = $event->getRequest();
        foreach ($this->factory->used() as $storage) {
            self::cookie($storage, $request, $event->getResponse()->headers);
        }
    }

    private static function cookie(SessionStorage $storage, Request $request, ResponseHeaderBag $headers): void
    {
        if ($storage->isStarted()) {
            $storage->save();
        }
        $options = $storage->options;
        if (!$options->useCookies) {
            return;
        }
        $name = $storage->getName();
        $id = $storage->getId();
        $sent = $request->cookies->get($name);
        $secure = $options->secureFor($request->isSecure());
        if ($storage->savedEmpty()) {
            if (\is_string($sent) && $sent !== '') {
                $headers->clearCookie($name, $options->cookiePath, $options->cookieDomain, $secure, $options->cookieHttpOnly, $options->cookieSameSite);
            } else {
                $headers->removeCookie($name, $options->cookiePath, $options->cookieDomain);
            }

            return;
        }
        if ($id === $sent) {
            $headers->removeCookie($name, $options->cookiePath, $options->cookieDomain);

            return;
        }
        $lifetime = $storage->cookieLifetime();
        $headers->setCookie(Cookie::create(
            $name,
            $id,
            $lifetime > 0 ? \time() + $lifetime : 0,
            $options->cookiePath,
            $options->cookieDomain,
            $secure,
            $options->cookieHttpOnly,
            false,
            $options->cookieSameSite,
        ));
    }

    /** Before Symfony's session listener on kernel.request: the storages forget the last request. */
    public function onRequest(RequestEvent $event): void
    {
        if ($event->isMainRequest()) {
            $this->factory->reset();
        }
    }

    /** A session started again after the response (by a streamed body, a terminate listener) is saved. */
    public function onTerminate(): void
    {
        foreach ($this->factory->used() as $storage) {
            if ($storage->isStarted()) {
                $storage->save();
            }
        }
    }
}
